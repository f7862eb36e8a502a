; the number of one bits of each i32 lane (llvm.tpc.popcnt, SW 1 = count
; ones): a u8 count per lane, stored as the 256-byte vector it is
target triple = "tpc"

define void @main() {
entry:
  %off = call <5 x i32> @llvm.tpc.get.index.space.offset()
  %size = call <5 x i32> @llvm.tpc.get.index.space.size()
  %first = extractelement <5 x i32> %off, i32 0
  %n = extractelement <5 x i32> %size, i32 0
  %last = add i32 %first, %n
  br label %body

body:
  %i = phi i32 [ %first, %entry ], [ %next, %body ]
  %x = mul i32 %i, 64
  %c = insertelement <5 x i32> zeroinitializer, i32 %x, i32 0
  %a = call <64 x i32> @llvm.tpc.ld.tnsr.v64i32.i1(<5 x i32> %c, i8 0, i32 0, <64 x i32> undef, i1 true, i1 false)
  %x4 = mul i32 %i, 256
  %c4 = insertelement <5 x i32> zeroinitializer, i32 %x4, i32 0
  %r = call <256 x i8> @llvm.tpc.popcnt.v256i8.v64i32.i1(<64 x i32> %a, i8 2, i32 1, <256 x i8> undef, i1 true, i1 false)
  call void @llvm.tpc.st.tnsr.v256i8(<5 x i32> %c4, i8 1, <256 x i8> %r, i32 0, i1 true, i1 false)
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %last
  br i1 %more, label %body, label %exit

exit:
  ret void
}

declare <5 x i32> @llvm.tpc.get.index.space.offset()
declare <5 x i32> @llvm.tpc.get.index.space.size()
declare <64 x i32> @llvm.tpc.ld.tnsr.v64i32.i1(<5 x i32>, i8, i32, <64 x i32>, i1, i1)
declare <256 x i8> @llvm.tpc.popcnt.v256i8.v64i32.i1(<64 x i32>, i8, i32, <256 x i8>, i1, i1)
declare void @llvm.tpc.st.tnsr.v256i8(<5 x i32>, i8, <256 x i8>, i32, i1, i1)
